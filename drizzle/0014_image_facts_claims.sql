CREATE TABLE "image_facts_claims" (
	"asset_id" uuid PRIMARY KEY NOT NULL,
	"generation_id" uuid NOT NULL,
	"claimed_by" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image_facts_claims" ADD CONSTRAINT "image_facts_claims_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_facts_claims" ADD CONSTRAINT "image_facts_claims_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generations_image_finished_idx" ON "generations" USING btree ("finished_at") WHERE "generations"."status" = 'succeeded' and "generations"."mode" = 'image';