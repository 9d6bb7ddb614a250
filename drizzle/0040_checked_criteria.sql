ALTER TABLE "missions" ADD COLUMN "criteria_checks" json;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "auto_approve" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "auto_approve_grant_id" uuid;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "submission_checks" json;--> statement-breakpoint
ALTER TABLE "bounty_entries" ADD COLUMN "checks" json;