import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'
import { Container } from './container.tsx'

/** The title band at the top of content pages. */
export function PageHeader(props: { title: string; subtitle?: ReactNode }) {
  return (
    <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
      <Container className="py-12 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{props.title}</h1>
        {props.subtitle ? <p className="mt-4 max-w-2xl text-lg text-slate-600">{props.subtitle}</p> : null}
      </Container>
    </div>
  )
}

/**
 * The start of a content page: the title band with `<keys>.title` and `<keys>.subtitle`, then the
 * page's first block (`children`) in the page width below it.
 */
export function PageIntro(props: { keys: GroupWith<'title'> & GroupWith<'subtitle'>; children: ReactNode }) {
  const { t } = useI18n()
  return (
    <>
      <PageHeader title={t(`${props.keys}.title` as TKey)} subtitle={t(`${props.keys}.subtitle` as TKey)} />
      <Container className="py-12 sm:py-16">{props.children}</Container>
    </>
  )
}
