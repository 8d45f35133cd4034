// The whole database schema; drizzle-kit reads this file to generate migrations.
export * from './contact.ts'
export * from './email.ts'
export * from './rate-limit.ts'
