import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { PageIntro } from './page-header.tsx'
import { TextLink } from './text-link.tsx'

/** A titled section of a text page: an h2 and its paragraphs, spaced for reading. */
export function ProseSection(props: { id: string; title: string; children: ReactNode }) {
  const titleId = `${props.id}-title`
  return (
    <section id={props.id} aria-labelledby={titleId} className="scroll-mt-24">
      <h2
        id={titleId}
        className="text-xl font-semibold tracking-tight text-balance text-slate-900 sm:text-2xl"
      >
        {props.title}
      </h2>
      <div className="mt-3 space-y-3 leading-7 text-slate-700">{props.children}</div>
    </section>
  )
}

/** The sections of a text page's messages that are one paragraph: `pages.<page>.<id>.body`. */
type ParagraphId<Page extends string, Key = TKey> = Key extends `pages.${Page}.${infer Id}.body` ? Id : never

/** Sections of one paragraph each, titled `pages.<page>.<id>.title`, in the order of `ids`. */
export function ParagraphSections<Page extends 'about' | 'privacy' | 'terms'>(props: {
  page: Page
  ids: readonly ParagraphId<Page>[]
}) {
  const { t } = useI18n()
  // ParagraphId holds each id to the page's messages, which TypeScript cannot see through the template.
  const text = (id: string, part: 'title' | 'body') => t(`pages.${props.page}.${id}.${part}` as TKey)
  return props.ids.map((id) => (
    <ProseSection key={id} id={id} title={text(id, 'title')}>
      <p>{text(id, 'body')}</p>
    </ProseSection>
  ))
}

/** A bulleted list inside a prose section. */
export function ProseList(props: { items: string[] }) {
  return (
    <ul className="list-disc space-y-2 pl-5 marker:text-brand-600">
      {props.items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}

/** A highlighted note at the top of a text page, e.g. "this is a plain-language summary". */
function ProseNote(props: { children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-brand-200 bg-brand-50 p-5 text-slate-800 sm:p-6">
      {props.children}
    </div>
  )
}

/** The closing "questions? write to us" line of a text page. */
export function ContactPrompt(props: { text: string; linkText: string }) {
  return (
    <p className="rounded-2xl border border-slate-200 bg-slate-50 p-5 text-slate-700 sm:p-6">
      {props.text} <TextLink to={href('contact')}>{props.linkText}</TextLink>
    </p>
  )
}

/**
 * The privacy policy or the terms: the page's header, its plain-language note, its sections
 * (`children`), then the "questions? write to us" line, all from the page's messages.
 */
export function PolicyPage(props: { page: 'privacy' | 'terms'; children: ReactNode }) {
  const { t } = useI18n()
  const { page } = props
  return (
    <PageIntro keys={`pages.${page}`}>
      <div className="mx-auto max-w-3xl space-y-10">
        <ProseNote>
          <p>{t(`pages.${page}.notice`)}</p>
        </ProseNote>
        {props.children}
        <ContactPrompt
          text={t(`pages.${page}.questions.body`)}
          linkText={t(`pages.${page}.questions.link`)}
        />
      </div>
    </PageIntro>
  )
}
