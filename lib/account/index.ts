// Account (docs/api.md#account): the caller's own profile and counts.
export { getProfileOrThrow, updateProfile } from './profile';
export { accountStats } from './stats';
export * from './schemas';
