ALTER TABLE "mission_contests" ADD COLUMN "unmet" json;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "criteria" text[];--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "criteria_hash" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "submission_self_check" json;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "verdicts" json;--> statement-breakpoint
ALTER TABLE "bounty_entries" ADD COLUMN "self_check" json;