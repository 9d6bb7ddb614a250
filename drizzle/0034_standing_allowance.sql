CREATE TYPE "public"."funding_via" AS ENUM('AUTHORIZATION', 'MANDATE');--> statement-breakpoint
CREATE TYPE "public"."mandate_relay_kind" AS ENUM('SET', 'REVOKE');--> statement-breakpoint
CREATE TABLE "grant_fundings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grant_id" uuid NOT NULL,
	"mission_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mandate_relays" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"kind" "mandate_relay_kind" NOT NULL,
	"payload" jsonb NOT NULL,
	"status" "funding_status" DEFAULT 'RELAYING' NOT NULL,
	"tx_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mission_fundings" ALTER COLUMN "signature" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "grants" ADD COLUMN "funding_limit" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_fundings" ADD COLUMN "via" "funding_via" DEFAULT 'AUTHORIZATION' NOT NULL;--> statement-breakpoint
ALTER TABLE "grant_fundings" ADD CONSTRAINT "grant_fundings_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grant_fundings" ADD CONSTRAINT "grant_fundings_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandate_relays" ADD CONSTRAINT "mandate_relays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grant_fundings_grant_idx" ON "grant_fundings" USING btree ("grant_id","created_at");--> statement-breakpoint
CREATE INDEX "mandate_relays_relaying_idx" ON "mandate_relays" USING btree ("updated_at") WHERE "mandate_relays"."status" = 'RELAYING';