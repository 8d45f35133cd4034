import { defineConfig } from 'drizzle-kit'

// Only generates SQL from the schema; migrations are applied by the app (src/server/db/client.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './drizzle',
  casing: 'snake_case',
})
