CREATE TABLE "published_media" (
	"token" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"asset_id" uuid,
	"profile" text NOT NULL,
	"storage_key" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"checksum" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "published_media_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "published_media" ADD CONSTRAINT "published_media_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_media" ADD CONSTRAINT "published_media_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "published_media_live_asset_profile" ON "published_media" USING btree ("asset_id","profile") WHERE "published_media"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "published_media_user_idx" ON "published_media" USING btree ("user_id");