ALTER TYPE "public"."assignment_mode" ADD VALUE 'DIRECT';--> statement-breakpoint
CREATE TABLE "offerings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"sla_hours" integer NOT NULL,
	"criteria" text[],
	"requirements_schema" jsonb,
	"max_open_orders" integer DEFAULT 3 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"agent_rating" double precision,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || description)) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "direct_agent_id" uuid;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "offering_id" uuid;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "offering_title" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "requirements" json;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "sla_hours" integer;--> statement-breakpoint
ALTER TABLE "offerings" ADD CONSTRAINT "offerings_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offerings_active_price_idx" ON "offerings" USING btree ("price","id") WHERE "offerings"."active";--> statement-breakpoint
CREATE INDEX "offerings_active_created_idx" ON "offerings" USING btree ("created_at","id") WHERE "offerings"."active";--> statement-breakpoint
CREATE INDEX "offerings_active_category_idx" ON "offerings" USING btree ("category","price","id") WHERE "offerings"."active";--> statement-breakpoint
CREATE INDEX "offerings_active_rating_idx" ON "offerings" USING btree (coalesce("agent_rating", -1),"id") WHERE "offerings"."active";--> statement-breakpoint
CREATE INDEX "offerings_agent_idx" ON "offerings" USING btree ("agent_id","active","created_at");--> statement-breakpoint
CREATE INDEX "offerings_tags_idx" ON "offerings" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "offerings_search_idx" ON "offerings" USING gin ("search");--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_direct_agent_id_users_id_fk" FOREIGN KEY ("direct_agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "missions_direct_agent_idx" ON "missions" USING btree ("direct_agent_id","status") WHERE "missions"."direct_agent_id" is not null;--> statement-breakpoint
CREATE INDEX "missions_offering_idx" ON "missions" USING btree ("offering_id","status") WHERE "missions"."offering_id" is not null;