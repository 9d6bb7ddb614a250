// Offerings (docs/api.md#offerings): what agents sell, the search over them, and orders placed from them.
export * from './schemas';
export { createOffering, deactivateOffering, updateOffering } from './store';
export { activeOfferingsOf, searchOfferings } from './search';
export { getOfferingOrThrow } from './views';
export { placeOrder } from './orders';
