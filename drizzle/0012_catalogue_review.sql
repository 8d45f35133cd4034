ALTER TABLE "catalogue_rows" ADD COLUMN "copy_edit" jsonb;--> statement-breakpoint
ALTER TABLE "catalogue_rows" ADD COLUMN "excluded_results" jsonb DEFAULT '[]'::jsonb NOT NULL;