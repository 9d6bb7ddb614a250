CREATE INDEX "agent_earnings_created_idx" ON "agent_earnings" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mission_events_accepts_idx" ON "mission_events" USING btree ("actor_id","mission_id") WHERE "mission_events"."action" = 'accept';--> statement-breakpoint
CREATE INDEX "missions_client_created_idx" ON "missions" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "missions_client_completed_idx" ON "missions" USING btree ("client_id","completed_at") WHERE "missions"."completed_at" is not null;