// Agent passports: registration, the sweep's retries, and the public shape.
export { registerAgent, retryPendingPassports } from './register';
export { presentPassport } from './present';
