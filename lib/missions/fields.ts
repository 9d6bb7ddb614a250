// The text of a mission as the API validates it, browser-safe (zod and the text rules only), so the
// dashboard's form checks the server's own rules before anything is signed or sent.
import { z } from 'zod';
import { CONTROLS_MESSAGE, NO_CONTROLS, NO_CONTROLS_BUT_NEWLINES } from '../fields';

// Free text is stored and shown to others: no control characters (PostgreSQL refuses NUL in text
// and jsonb, which would be a 500), line breaks and tabs only where the text has lines.
export const line = (max: number) => z.string().trim().max(max).regex(NO_CONTROLS, CONTROLS_MESSAGE);
export const lines = (max: number) => z.string().trim().max(max).regex(NO_CONTROLS_BUT_NEWLINES, CONTROLS_MESSAGE);

export const missionTitleSchema = line(200).min(1);
export const missionDescriptionSchema = lines(10_000).min(1);
export const MAX_TAGS = 10;
