import {
  type CreateWebhookEndpointResponse,
  type WebhookEventType,
  webhookEventTypes,
  webhookUrlMaxLength,
} from '#shared/contracts/webhooks.ts'
import { FormDialog } from '#web/components/ui/form-dialog.tsx'
import { FormInput } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'

type Field = 'url' | 'events'
type Reason = 'urlRequired' | 'urlInvalid' | 'eventsRequired'

/** The checked events, kept as one comma-separated form value. */
function eventsOf(value: string): WebhookEventType[] {
  return webhookEventTypes.filter((type) => value.split(',').includes(type))
}

function validate(values: Record<Field, string>): Partial<Record<Field, Reason>> {
  const url = values.url.trim()
  const errors: Partial<Record<Field, Reason>> = {}
  if (url === '') errors.url = 'urlRequired'
  else if (!/^https?:\/\/\S+$/i.test(url)) errors.url = 'urlInvalid'
  if (eventsOf(values.events).length === 0) errors.events = 'eventsRequired'
  return errors
}

/** Asks for a URL and the events to send there; the server checks the URL further (public address). */
export function AddWebhookDialog(props: {
  create: (url: string, events: WebhookEventType[]) => Promise<CreateWebhookEndpointResponse>
  onCreated: (created: CreateWebhookEndpointResponse) => void
  onClose: () => void
}) {
  const { t } = useI18n()
  const form = useForm<Record<Field, string>, Reason>({
    initialValues: { url: '', events: webhookEventTypes.join(',') },
    validate,
    describe: (reason) => t(`webhooks.addDialog.${reason}`),
    action: async (values) => {
      props.onCreated(await props.create(values.url.trim(), eventsOf(values.events)))
    },
  })
  const checked = eventsOf(form.values.events)
  const eventsError = form.errorText('events')

  function toggle(type: WebhookEventType, isChecked: boolean) {
    const next = isChecked ? [...checked, type] : checked.filter((event) => event !== type)
    form.setValue('events', webhookEventTypes.filter((event) => next.includes(event)).join(','))
  }

  return (
    <FormDialog keys="webhooks.addDialog" busy="busy" form={form} onClose={props.onClose}>
      <FormInput
        form={form}
        name="url"
        label={t('webhooks.addDialog.urlLabel')}
        type="url"
        inputMode="url"
        autoComplete="off"
        maxLength={webhookUrlMaxLength}
        placeholder={t('webhooks.addDialog.urlPlaceholder')}
        required
      />
      <fieldset aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
        <legend className="text-sm font-medium text-slate-900">{t('webhooks.addDialog.eventsLegend')}</legend>
        <div className="mt-2 space-y-2">
          {webhookEventTypes.map((type) => (
            <label key={type} className="flex items-center gap-3 text-sm text-slate-900">
              <input
                type="checkbox"
                name="events"
                value={type}
                checked={checked.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
                aria-invalid={eventsError ? true : undefined}
                className="h-5 w-5 rounded border-slate-400"
              />
              <span>
                {t(`webhooks.events.${type}`)} <code className="text-xs text-slate-600">{type}</code>
              </span>
            </label>
          ))}
        </div>
        {eventsError ? (
          <p id="webhook-events-error" className="mt-2 text-sm text-red-700">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
    </FormDialog>
  )
}
