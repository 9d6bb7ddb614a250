// The body of every error response (docs/api.md#errors), as a schema for the OpenAPI document. The route
// wrapper (route.ts) is what produces it; this only describes it.
import { z } from 'zod';

export const errorBodySchema = z.object({
  error: z.string(),
  details: z.array(z.string()).optional(),
});
