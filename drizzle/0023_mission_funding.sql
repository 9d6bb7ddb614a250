CREATE TYPE "public"."funding_status" AS ENUM('RELAYING', 'MINED', 'FAILED');--> statement-breakpoint
ALTER TYPE "public"."mission_status" ADD VALUE 'AWAITING_FUNDING';--> statement-breakpoint
CREATE TABLE "mission_fundings" (
	"mission_id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"signature" text NOT NULL,
	"valid_before" bigint NOT NULL,
	"status" "funding_status" DEFAULT 'RELAYING' NOT NULL,
	"tx_hash" text,
	"from_block" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"mined_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "funding_ref" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "funding_expires_at" bigint;--> statement-breakpoint
ALTER TABLE "mission_fundings" ADD CONSTRAINT "mission_fundings_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_fundings" ADD CONSTRAINT "mission_fundings_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mission_fundings_relaying_idx" ON "mission_fundings" USING btree ("status","updated_at") WHERE "mission_fundings"."status" = 'RELAYING';