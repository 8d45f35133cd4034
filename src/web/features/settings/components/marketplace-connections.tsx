import { useState } from 'react'
import type { ZodType } from 'zod'
import {
  connectHepsiburadaRequestSchema,
  connectTrendyolRequestSchema,
  type IntegrationMarketplace,
  type IntegrationsResponse,
  type IntegrationView,
} from '#shared/contracts/integrations.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { type FieldInputProps, useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import {
  connectMarketplace,
  disconnectMarketplace,
  getIntegrations,
  testMarketplace,
} from '../api/settings-api.ts'

const cardClass = 'flex flex-col rounded-2xl border border-slate-200 bg-white p-5'

/**
 * Trendyol and Hepsiburada: a form for the seller's API credentials, which the server tries at
 * the marketplace before saving; once connected, the account and a mask of the secret, with
 * Disconnect. The secret is never shown again.
 */
export function MarketplaceConnections() {
  const { t } = useI18n()
  const resource = useResource(getIntegrations)
  const [message, setMessage] = useState('')
  return (
    <LoadState
      resource={resource}
      loadingLabel={t('settings.integrations.loading')}
      errorTitle={t('settings.integrations.loadError')}
      retryLabel={t('settings.error.retry')}
      variant="inline"
    >
      {(data) => (
        <div className="space-y-3">
          <ul className="grid gap-4 md:grid-cols-2">
            {data.integrations.map((integration) => (
              <ConnectionCard
                key={integration.marketplace}
                integration={integration}
                onChange={(next, said) => {
                  resource.replace(next)
                  setMessage(said)
                }}
              />
            ))}
          </ul>
          <p role="status" className="text-sm text-emerald-800">
            {message}
          </p>
        </div>
      )}
    </LoadState>
  )
}

function ConnectionCard(props: {
  integration: IntegrationView
  onChange: (next: IntegrationsResponse, message: string) => void
}) {
  const { t } = useI18n()
  const { integration } = props
  const id = integration.marketplace
  const name = t(`settings.integrations.${id}.name`)
  return (
    <li data-testid={`integration-${id}`} aria-labelledby={`integration-${id}-name`} className={cardClass}>
      <div className="flex items-start justify-between gap-2">
        <h4 id={`integration-${id}-name`} className="font-semibold text-slate-900">
          {name}
        </h4>
        <span
          className={
            integration.isConnected
              ? 'rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-emerald-900 ring-1 ring-emerald-200 ring-inset'
              : 'rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-slate-700'
          }
        >
          {integration.isConnected
            ? t('settings.integrations.connected')
            : t('settings.integrations.notConnected')}
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-600">{t(`settings.integrations.${id}.description`)}</p>
      {integration.isConnected ? (
        <Connected integration={integration} name={name} onChange={props.onChange} />
      ) : (
        <CredentialsForm marketplace={id} name={name} onChange={props.onChange} />
      )}
    </li>
  )
}

/** What a connected marketplace's card can do: check the keys still work, or disconnect. */
const connectionActions = [
  { busy: 'testing', label: 'settings.integrations.test', busyLabel: 'settings.integrations.testing' },
  {
    busy: 'disconnecting',
    label: 'settings.integrations.disconnect',
    busyLabel: 'settings.integrations.disconnecting',
  },
] as const

function Connected(props: {
  integration: IntegrationView
  name: string
  onChange: (next: IntegrationsResponse, message: string) => void
}) {
  const { t, locale } = useI18n()
  const [busy, setBusy] = useState<'testing' | 'disconnecting' | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const { integration } = props
  async function run(action: 'testing' | 'disconnecting') {
    setBusy(action)
    setFailure(null)
    try {
      if (action === 'testing') {
        props.onChange(
          await testMarketplace(integration.marketplace),
          t('settings.integrations.tested', { name: props.name }),
        )
        setBusy(null)
      } else {
        props.onChange(
          await disconnectMarketplace(integration.marketplace),
          t('settings.integrations.disconnected', { name: props.name }),
        )
      }
    } catch (caught) {
      setFailure(t(errorMessageKey(caught)))
      setBusy(null)
    }
  }
  return (
    <div className="mt-4 space-y-3 border-t border-slate-200 pt-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t(`settings.integrations.${integration.marketplace}.account`)}</dt>
        <dd className="font-mono text-slate-900">{integration.accountId}</dd>
        <dt className="text-slate-600">{t('settings.integrations.secret')}</dt>
        <dd className="font-mono text-slate-900">{integration.secretMask}</dd>
        {integration.verifiedAt ? (
          <>
            <dt className="text-slate-600">{t('settings.integrations.checked')}</dt>
            <dd className="text-slate-900">{formatDateTime(locale, integration.verifiedAt)}</dd>
          </>
        ) : null}
      </dl>
      {failure ? <FormAlert message={failure} /> : null}
      <div className="flex flex-wrap gap-2">
        {connectionActions.map((action) => (
          <button
            key={action.busy}
            type="button"
            className={buttonClasses('secondary', 'md')}
            onClick={() => void run(action.busy)}
            disabled={busy !== null}
            aria-busy={busy === action.busy}
          >
            {busy === action.busy ? t(action.busyLabel) : t(action.label, { name: props.name })}
          </button>
        ))}
      </div>
    </div>
  )
}

type Reason = 'required' | 'invalid'

type CredentialSpec = {
  name: string
  label: TKey
  /** What to say when the field is filled but not the shape the marketplace's own value has. */
  invalid: TKey
  isSecret?: boolean
  inputMode?: 'numeric'
}

/** What each marketplace asks for, in its panel's words, checked by the API's own schema. */
const credentialForms = {
  trendyol: {
    schema: connectTrendyolRequestSchema,
    where: 'settings.integrations.trendyol.where',
    fields: [
      {
        name: 'sellerId',
        label: 'settings.integrations.trendyol.account',
        invalid: 'settings.integrations.trendyol.sellerIdInvalid',
        inputMode: 'numeric',
      },
      {
        name: 'apiKey',
        label: 'settings.integrations.trendyol.apiKey',
        invalid: 'settings.integrations.trendyol.keyInvalid',
        isSecret: true,
      },
      {
        name: 'apiSecret',
        label: 'settings.integrations.trendyol.apiSecret',
        invalid: 'settings.integrations.trendyol.keyInvalid',
        isSecret: true,
      },
    ],
  },
  hepsiburada: {
    schema: connectHepsiburadaRequestSchema,
    where: 'settings.integrations.hepsiburada.where',
    fields: [
      {
        name: 'merchantId',
        label: 'settings.integrations.hepsiburada.account',
        invalid: 'settings.integrations.hepsiburada.merchantIdInvalid',
      },
      {
        name: 'serviceKey',
        label: 'settings.integrations.hepsiburada.serviceKey',
        invalid: 'settings.integrations.hepsiburada.serviceKeyInvalid',
        isSecret: true,
      },
    ],
  },
} satisfies Record<
  IntegrationMarketplace,
  { schema: ZodType<Record<string, string>>; where: TKey; fields: CredentialSpec[] }
>

/** A marketplace's credentials, checked here first and then tried at the marketplace by the server. */
function CredentialsForm(props: {
  marketplace: IntegrationMarketplace
  name: string
  onChange: (next: IntegrationsResponse, message: string) => void
}) {
  const { t } = useI18n()
  const { schema, where, fields } = credentialForms[props.marketplace]
  const specs: CredentialSpec[] = fields
  const spec = (name: string) => specs.find((field) => field.name === name)
  const form = useForm<Record<string, string>, Reason>({
    initialValues: Object.fromEntries(specs.map((field) => [field.name, ''])),
    validate: (values) => {
      const parsed = schema.safeParse(values)
      const wrong = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])))
      return Object.fromEntries(
        specs.map((field) => [
          field.name,
          (values[field.name] ?? '').trim() === ''
            ? 'required'
            : wrong.has(field.name)
              ? 'invalid'
              : undefined,
        ]),
      )
    },
    describe: (reason, name) =>
      reason === 'required'
        ? t('settings.integrations.required')
        : t(spec(name)?.invalid ?? 'settings.integrations.required'),
    action: async (values) => {
      const request =
        props.marketplace === 'trendyol'
          ? { marketplace: 'trendyol' as const, body: connectTrendyolRequestSchema.parse(values) }
          : { marketplace: 'hepsiburada' as const, body: connectHepsiburadaRequestSchema.parse(values) }
      const next = await connectMarketplace(request)
      props.onChange(next, t('settings.integrations.saved', { name: props.name }))
    },
  })
  return (
    <form {...form.formProps} className="mt-4 space-y-3 border-t border-slate-200 pt-4">
      {form.formError ? <FormAlert message={form.formError} /> : null}
      {specs.map((field) => (
        <CredentialField
          key={field.name}
          label={t(field.label)}
          error={form.errorText(field.name)}
          input={form.input(field.name)}
          isSecret={field.isSecret}
          inputMode={field.inputMode}
        />
      ))}
      <p className="text-sm text-slate-600">{t(where)}</p>
      <SubmitButton
        isBusy={form.status === 'sending'}
        busyLabel={t('settings.integrations.connecting')}
        size="md"
        className="self-start"
      >
        {t('settings.integrations.connect', { name: props.name })}
      </SubmitButton>
    </form>
  )
}

/** One credential: plain for an account number, a password field for a key (never autofilled). */
function CredentialField(props: {
  label: string
  error: string | undefined
  input: FieldInputProps
  isSecret?: boolean | undefined
  inputMode?: 'numeric' | undefined
}) {
  return (
    <FormField label={props.label} error={props.error}>
      {(control) => (
        <input
          {...control}
          {...props.input}
          type={props.isSecret ? 'password' : 'text'}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          {...(props.inputMode ? { inputMode: props.inputMode } : {})}
          className={`${inputClasses} font-mono`}
        />
      )}
    </FormField>
  )
}
