ALTER TABLE "publications" ADD COLUMN "catalogue_batch_id" uuid;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "resubmit_of" uuid;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_catalogue_batch_id_catalogue_batches_id_fk" FOREIGN KEY ("catalogue_batch_id") REFERENCES "public"."catalogue_batches"("id") ON DELETE set null ON UPDATE no action;