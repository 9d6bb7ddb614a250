// The whole Drizzle schema, one file per table group.
export * from './users';
export * from './missions';
export * from './settlements';
export * from './marketplace';
export * from './webhooks';
export * from './grants';
export * from './bounties';
export * from './confirmations';
export * from './fundings';
export * from './erc8004';
export * from './milestones';
export * from './allowance';
export * from './offerings';
