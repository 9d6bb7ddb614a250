CREATE TABLE "agent_identities" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"registry" text NOT NULL,
	"agent_id" numeric(78, 0) NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reputation_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"registry" text NOT NULL,
	"agent_id" numeric(78, 0) NOT NULL,
	"value" integer NOT NULL,
	"outcome" text NOT NULL,
	"feedback_uri" text NOT NULL,
	"document" text,
	"feedback_hash" text,
	"status" "settlement_status" DEFAULT 'PENDING' NOT NULL,
	"tx_hash" text,
	"sent_from_block" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reputation_feedback" ADD CONSTRAINT "reputation_feedback_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reputation_feedback" ADD CONSTRAINT "reputation_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_identities_agent_idx" ON "agent_identities" USING btree ("registry","agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reputation_feedback_mission_user_idx" ON "reputation_feedback" USING btree ("mission_id","user_id");--> statement-breakpoint
CREATE INDEX "reputation_feedback_pending_idx" ON "reputation_feedback" USING btree ("created_at") WHERE "reputation_feedback"."status" = 'PENDING';