ALTER TABLE "access_codes" ADD COLUMN "max_redemptions" integer;--> statement-breakpoint
ALTER TABLE "access_codes" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rate_limit_buckets" ADD COLUMN "last_hit_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "access_code_redemptions_client_idx" ON "access_code_redemptions" USING btree ("client_ip","created_at");--> statement-breakpoint
CREATE INDEX "generations_user_active_idx" ON "generations" USING btree ("user_id","status") WHERE "generations"."status" in ('queued', 'running');