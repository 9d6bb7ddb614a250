ALTER TYPE "public"."confirmation_status" ADD VALUE 'SUPERSEDED';--> statement-breakpoint
ALTER TABLE "confirmations" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "confirmations" ADD COLUMN "reason" text;