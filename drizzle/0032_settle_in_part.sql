ALTER TYPE "public"."settlement_kind" ADD VALUE 'SETTLE';--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "settlement" json;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "settlement_offer" json;