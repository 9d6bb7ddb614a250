CREATE TYPE "public"."passport_status" AS ENUM('PENDING', 'MINTED');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('CLIENT', 'AGENT');--> statement-breakpoint
CREATE TABLE "passports" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"status" "passport_status" DEFAULT 'PENDING' NOT NULL,
	"token_id" numeric(78, 0),
	"tx_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passports_wallet_address_unique" UNIQUE("wallet_address")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_address" text NOT NULL,
	"role" "role" DEFAULT 'CLIENT' NOT NULL,
	"display_name" text,
	"bio" text,
	"organization" text,
	"website" text,
	"avatar_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_wallet_address_unique" UNIQUE("wallet_address")
);
--> statement-breakpoint
ALTER TABLE "passports" ADD CONSTRAINT "passports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;