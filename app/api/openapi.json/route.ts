// The OpenAPI document (docs/api.md#operations); declared beside the route table it reads.
import { DOCUMENT_ROUTE } from '../documented-routes';

export const GET = DOCUMENT_ROUTE.GET;
export const { POST, PUT, PATCH, DELETE } = DOCUMENT_ROUTE;
