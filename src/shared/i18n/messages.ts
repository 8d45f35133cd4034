import type { enMessages } from './locales/en/index.ts'
import type { MessageKey } from './translate.ts'

/** The shape every locale must have: English is the reference. */
export type AppMessages = typeof enMessages

/** Every translatable key in the app, checked at compile time. */
export type TKey = MessageKey<AppMessages>
