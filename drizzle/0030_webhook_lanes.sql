ALTER TABLE "webhook_deliveries" ADD COLUMN "board" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "board" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lane_due_idx" ON "webhook_deliveries" USING btree ("board","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_events_lane_idx" ON "webhook_events" USING btree ("board","seq");