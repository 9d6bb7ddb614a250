ALTER TYPE "public"."assignment_mode" ADD VALUE 'BOUNTY';--> statement-breakpoint
ALTER TYPE "public"."mission_file_kind" ADD VALUE 'ENTRY';--> statement-breakpoint
ALTER TYPE "public"."mission_status" ADD VALUE 'JUDGING';--> statement-breakpoint
ALTER TYPE "public"."mission_status" ADD VALUE 'AWARDED';--> statement-breakpoint
ALTER TYPE "public"."settlement_kind" ADD VALUE 'SPLIT';--> statement-breakpoint
CREATE TABLE "bounty_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"note" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"place" smallint,
	"amount" numeric(78, 0),
	"contest_reason" text,
	"contested_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agent_earnings" DROP CONSTRAINT "agent_earnings_mission_id_unique";--> statement-breakpoint
ALTER TABLE "missions" DROP CONSTRAINT "missions_on_chain_task_id_unique";--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "escrow" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "winners" smallint;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "split" smallint[];--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "entry_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "awarded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "award_reason" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "escrow" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "recipients" jsonb;--> statement-breakpoint
ALTER TABLE "bounty_entries" ADD CONSTRAINT "bounty_entries_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bounty_entries" ADD CONSTRAINT "bounty_entries_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bounty_entries_once_idx" ON "bounty_entries" USING btree ("mission_id","agent_id");--> statement-breakpoint
CREATE INDEX "bounty_entries_page_idx" ON "bounty_entries" USING btree ("mission_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bounty_entries_agent_idx" ON "bounty_entries" USING btree ("agent_id","mission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_earnings_mission_agent_idx" ON "agent_earnings" USING btree ("mission_id","agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "missions_on_chain_task_idx" ON "missions" USING btree (coalesce("escrow", ''),"on_chain_task_id");