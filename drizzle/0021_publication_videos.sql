ALTER TABLE "publication_items" ADD COLUMN "video_status" text;--> statement-breakpoint
ALTER TABLE "publication_items" ADD COLUMN "video_remote_id" text;--> statement-breakpoint
ALTER TABLE "publication_items" ADD COLUMN "video_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "publication_items" ADD COLUMN "content_id" text;