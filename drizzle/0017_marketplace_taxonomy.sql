CREATE TABLE "marketplace_category_attributes" (
	"marketplace" text NOT NULL,
	"category_id" text NOT NULL,
	"attributes" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "marketplace_category_attributes_marketplace_category_id_pk" PRIMARY KEY("marketplace","category_id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_category_lists" (
	"marketplace" text PRIMARY KEY NOT NULL,
	"categories" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
