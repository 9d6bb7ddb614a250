CREATE TYPE "public"."mission_actor" AS ENUM('OWNER', 'AGENT', 'OPERATOR', 'SYSTEM');--> statement-breakpoint
CREATE TYPE "public"."mission_file_kind" AS ENUM('ATTACHMENT', 'DELIVERABLE', 'EVIDENCE');--> statement-breakpoint
CREATE TYPE "public"."mission_status" AS ENUM('OPEN', 'ACCEPTED', 'SUBMITTED', 'CONTESTED', 'DISPUTED', 'COMPLETED', 'CANCELLED');--> statement-breakpoint
CREATE TABLE "agent_earnings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"mission_id" uuid NOT NULL,
	"gross" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee_bps" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_earnings_mission_id_unique" UNIQUE("mission_id")
);
--> statement-breakpoint
CREATE TABLE "file_blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mission_contests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"assignment" integer NOT NULL,
	"round" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mission_contests_round_unique" UNIQUE("mission_id","assignment","round")
);
--> statement-breakpoint
CREATE TABLE "mission_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mission_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"mission_id" uuid NOT NULL,
	"actor" "mission_actor" NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"from_status" "mission_status",
	"to_status" "mission_status" NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mission_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"kind" "mission_file_kind" NOT NULL,
	"assignment" integer NOT NULL,
	"round" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"uploader_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"agent_id" uuid,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"reward" numeric(78, 0) NOT NULL,
	"fee_bps" integer NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" "mission_status" DEFAULT 'OPEN' NOT NULL,
	"on_chain_task_id" bigint,
	"idempotency_key" text,
	"assignment" integer DEFAULT 0 NOT NULL,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"submission_note" text,
	"review_deadline" timestamp with time zone,
	"contest_count" integer DEFAULT 0 NOT NULL,
	"contested_at" timestamp with time zone,
	"bump_count" integer DEFAULT 0 NOT NULL,
	"bumped_at" timestamp with time zone,
	"listed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || description)) STORED NOT NULL,
	CONSTRAINT "missions_on_chain_task_id_unique" UNIQUE("on_chain_task_id")
);
--> statement-breakpoint
ALTER TABLE "agent_earnings" ADD CONSTRAINT "agent_earnings_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_earnings" ADD CONSTRAINT "agent_earnings_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_contests" ADD CONSTRAINT "mission_contests_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_events" ADD CONSTRAINT "mission_events_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_events" ADD CONSTRAINT "mission_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_files" ADD CONSTRAINT "mission_files_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_files" ADD CONSTRAINT "mission_files_sha256_file_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."file_blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_files" ADD CONSTRAINT "mission_files_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_earnings_agent_idx" ON "agent_earnings" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "mission_events_mission_idx" ON "mission_events" USING btree ("mission_id","id");--> statement-breakpoint
CREATE INDEX "mission_files_mission_idx" ON "mission_files" USING btree ("mission_id","kind","assignment","round");--> statement-breakpoint
CREATE INDEX "missions_status_listed_idx" ON "missions" USING btree ("status","listed_at","id");--> statement-breakpoint
CREATE INDEX "missions_status_reward_idx" ON "missions" USING btree ("status","reward","id");--> statement-breakpoint
CREATE INDEX "missions_status_deadline_idx" ON "missions" USING btree ("status","deadline","id");--> statement-breakpoint
CREATE INDEX "missions_status_created_idx" ON "missions" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "missions_category_idx" ON "missions" USING btree ("category","status","listed_at","id");--> statement-breakpoint
CREATE INDEX "missions_client_idx" ON "missions" USING btree ("client_id","listed_at","id");--> statement-breakpoint
CREATE INDEX "missions_agent_idx" ON "missions" USING btree ("agent_id","listed_at","id");--> statement-breakpoint
CREATE INDEX "missions_tags_idx" ON "missions" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "missions_search_idx" ON "missions" USING gin ("search");--> statement-breakpoint
CREATE INDEX "missions_review_due_idx" ON "missions" USING btree ("review_deadline") WHERE "missions"."status" = 'SUBMITTED';--> statement-breakpoint
CREATE UNIQUE INDEX "missions_idempotency_idx" ON "missions" USING btree ("client_id","idempotency_key");