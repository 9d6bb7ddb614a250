CREATE TYPE "public"."settlement_kind" AS ENUM('RELEASE', 'REFUND', 'CLAIM');--> statement-breakpoint
CREATE TYPE "public"."settlement_status" AS ENUM('PENDING', 'MINED', 'FAILED');--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "settlement_kind" NOT NULL,
	"mission_id" uuid,
	"user_id" uuid NOT NULL,
	"beneficiary" text NOT NULL,
	"task_id" bigint,
	"fee_bps" integer,
	"amount" numeric(78, 0) NOT NULL,
	"status" "settlement_status" DEFAULT 'PENDING' NOT NULL,
	"tx_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mined_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_mission_kind_idx" ON "settlements" USING btree ("mission_id","kind") WHERE "settlements"."mission_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_claim_in_flight_idx" ON "settlements" USING btree ("user_id") WHERE "settlements"."kind" = 'CLAIM' and "settlements"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_claim_key_idx" ON "settlements" USING btree ("user_id","idempotency_key") WHERE "settlements"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "settlements_pending_idx" ON "settlements" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "settlements_user_idx" ON "settlements" USING btree ("user_id","kind","created_at");