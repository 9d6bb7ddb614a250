CREATE TYPE "public"."assignment_mode" AS ENUM('FIRST_COME', 'APPLICATION');--> statement-breakpoint
CREATE TABLE "mission_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"round" smallint NOT NULL,
	"agent_id" uuid NOT NULL,
	"pitch" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mission_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" uuid NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mission_reviews" (
	"mission_id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "assignment_mode" "assignment_mode" DEFAULT 'FIRST_COME' NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_applications" ADD CONSTRAINT "mission_applications_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_applications" ADD CONSTRAINT "mission_applications_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_comments" ADD CONSTRAINT "mission_comments_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_comments" ADD CONSTRAINT "mission_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_reviews" ADD CONSTRAINT "mission_reviews_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_reviews" ADD CONSTRAINT "mission_reviews_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_reviews" ADD CONSTRAINT "mission_reviews_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mission_applications_once_idx" ON "mission_applications" USING btree ("mission_id","round","agent_id");--> statement-breakpoint
CREATE INDEX "mission_applications_page_idx" ON "mission_applications" USING btree ("mission_id","round","created_at","id");--> statement-breakpoint
CREATE INDEX "mission_comments_page_idx" ON "mission_comments" USING btree ("mission_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mission_reviews_agent_idx" ON "mission_reviews" USING btree ("agent_id","rating");