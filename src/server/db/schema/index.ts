// The whole database schema; drizzle-kit reads this file to generate migrations.
export * from './access.ts'
export * from './auth.ts'
export * from './billing.ts'
export * from './catalogue.ts'
export * from './contact.ts'
export * from './email.ts'
export * from './generations.ts'
export * from './rate-limit.ts'
