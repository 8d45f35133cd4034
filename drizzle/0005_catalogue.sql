CREATE TABLE "catalogue_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"file_name" text NOT NULL,
	"headers" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"photos_checked_at" timestamp with time zone,
	"zip_photo_count" integer,
	"outputs" jsonb,
	"preset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_mappings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"cells" jsonb NOT NULL,
	"links" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"too_long" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"image_refs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_asset_id" uuid,
	CONSTRAINT "catalogue_rows_batch_line_unique" UNIQUE("batch_id","line")
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "batch_row_id" uuid;--> statement-breakpoint
ALTER TABLE "catalogue_batches" ADD CONSTRAINT "catalogue_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_mappings" ADD CONSTRAINT "catalogue_mappings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_rows" ADD CONSTRAINT "catalogue_rows_batch_id_catalogue_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."catalogue_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_rows" ADD CONSTRAINT "catalogue_rows_input_asset_id_assets_id_fk" FOREIGN KEY ("input_asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_batches_user_idx" ON "catalogue_batches" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_batch_row_id_catalogue_rows_id_fk" FOREIGN KEY ("batch_row_id") REFERENCES "public"."catalogue_rows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generations_batch_row_idx" ON "generations" USING btree ("batch_row_id") WHERE "generations"."batch_row_id" is not null;