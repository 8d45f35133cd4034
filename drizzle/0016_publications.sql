CREATE TABLE "publication_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publication_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"barcode" text NOT NULL,
	"product_key" text NOT NULL,
	"remote_id" text,
	"product_url" text,
	"status" text NOT NULL,
	"listing" jsonb NOT NULL,
	"item" jsonb,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"generation_id" uuid,
	"catalogue_row_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"marketplace" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_items" ADD CONSTRAINT "publication_items_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_items" ADD CONSTRAINT "publication_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publication_items_publication" ON "publication_items" USING btree ("publication_id");--> statement-breakpoint
CREATE INDEX "publication_items_barcode" ON "publication_items" USING btree ("user_id","barcode");--> statement-breakpoint
CREATE INDEX "publications_due" ON "publications" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "publications_user" ON "publications" USING btree ("user_id","created_at");