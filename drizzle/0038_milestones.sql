CREATE TYPE "public"."milestone_status" AS ENUM('PENDING', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'APPROVED');--> statement-breakpoint
ALTER TYPE "public"."settlement_kind" ADD VALUE 'PART' BEFORE 'SETTLE';--> statement-breakpoint
CREATE TABLE "mission_milestones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"number" smallint NOT NULL,
	"title" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"criteria" text,
	"status" "milestone_status" DEFAULT 'PENDING' NOT NULL,
	"released_amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	"review_deadline" timestamp with time zone,
	"contest_count" integer DEFAULT 0 NOT NULL,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	CONSTRAINT "mission_milestones_number_unique" UNIQUE("mission_id","number")
);
--> statement-breakpoint
DROP INDEX "agent_earnings_mission_agent_idx";--> statement-breakpoint
DROP INDEX "settlements_mission_kind_idx";--> statement-breakpoint
ALTER TABLE "agent_earnings" ADD COLUMN "milestone" smallint;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "milestone_count" smallint;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "milestone" smallint;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "milestone_contest_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "released" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "milestone" smallint;--> statement-breakpoint
ALTER TABLE "mission_milestones" ADD CONSTRAINT "mission_milestones_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_earnings_milestone_idx" ON "agent_earnings" USING btree ("mission_id","milestone") WHERE "agent_earnings"."milestone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_milestone_idx" ON "settlements" USING btree ("mission_id","milestone") WHERE "settlements"."milestone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_earnings_mission_agent_idx" ON "agent_earnings" USING btree ("mission_id","agent_id") WHERE "agent_earnings"."milestone" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_mission_kind_idx" ON "settlements" USING btree ("mission_id","kind") WHERE "settlements"."mission_id" is not null and "settlements"."milestone" is null;