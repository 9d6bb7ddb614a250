ALTER TABLE "missions" ADD COLUMN "lapse_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "lapse_failed_at" timestamp with time zone;