// Types the dashboard shares between server components and the browser, taken from the API's own
// schemas (STYLE: types have one source).
import type { z } from 'zod';
import type { passportResponse, userResponse } from '../auth/schemas';
import type { PublicConfig } from '../public/schemas';

export type SessionUser = z.infer<typeof userResponse>;
export type Passport = z.infer<typeof passportResponse>;
export type RuntimeConfig = PublicConfig;
