import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { type SettingsResponse, saveFalKeyRequestSchema } from '#shared/contracts/settings.ts'
import { ActionOutcome } from '#web/components/ui/action-outcome.tsx'
import { Button, buttonClasses } from '#web/components/ui/button.tsx'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { deleteFalKey, saveFalKey } from '../api/settings-api.ts'
import { useSettingToggle } from '../hooks/use-setting-toggle.ts'
import { SettingToggleSection } from './setting-switch.tsx'

const minKeyLength = 16

/** Why a typed fal key is refused before sending; each is a message of `settings.api`. */
type KeyProblem = 'required' | 'tooShort' | 'invalid'

function keyProblem(value: string): KeyProblem | undefined {
  const trimmed = value.trim()
  if (trimmed === '') return 'required'
  if (trimmed.length < minKeyLength) return 'tooShort'
  return saveFalKeyRequestSchema.safeParse({ key: trimmed }).success ? undefined : 'invalid'
}

/**
 * Bring Your Own API Key. The key is typed into a password field (with show/hide), sent once,
 * and from then on only its mask (••••abcd) is shown; the field is emptied after saving.
 */
export function ApiSettingsPanel(props: {
  settings: SettingsResponse
  onChange: (settings: SettingsResponse) => void
}) {
  const { t } = useI18n()
  const { settings } = props
  const toggle = useSettingToggle(props.onChange)
  const keyInputId = useId()
  const keyHintId = useId()
  const keyErrorId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const [isKeyVisible, setKeyVisible] = useState(false)
  const [isRemoving, setRemoving] = useState(false)
  const [requestError, setRequestError] = useState<string | null>(null)
  const [message, setMessage] = useState('')
  const form = useForm<{ falKey: string }, KeyProblem>({
    initialValues: { falKey: '' },
    validate: ({ falKey }) => ({ falKey: keyProblem(falKey) }),
    describe: (problem) => t(`settings.api.${problem}`),
    action: async ({ falKey }) => {
      const next = await saveFalKey(falKey.trim())
      // The field is emptied before the new settings arrive: the key is never shown again.
      form.setValue('falKey', '')
      setKeyVisible(false)
      props.onChange(next)
      setMessage(t('settings.api.saved'))
    },
    // A refused key is said under the panel, like a failed removal, not on the field.
    serverFields: {},
    focusAfterError: () => undefined,
  })
  const isSaving = form.status === 'sending'
  const isBusy = isSaving || isRemoving
  const keyError = form.errorText('falKey')
  const failure = requestError ?? form.formError

  // Saved: the form is ready for another key (useForm keeps a sent form busy until it is reset).
  const { status, reset } = form
  useEffect(() => {
    if (status === 'sent') reset()
  }, [status, reset])

  const isOn = settings.byoApiEnabled && settings.hasSubscription

  function handleSave(event: FormEvent<HTMLFormElement>) {
    setMessage('')
    setRequestError(null)
    form.formProps.onSubmit(event)
  }

  async function handleRemove() {
    setMessage('')
    setRequestError(null)
    form.clearFormError()
    setRemoving(true)
    try {
      props.onChange(await deleteFalKey())
      setMessage(t('settings.api.removed'))
      inputRef.current?.focus()
    } catch (caught) {
      setRequestError(t(errorMessageKey(caught)))
    } finally {
      setRemoving(false)
    }
  }

  const removeButton = (
    <button
      type="button"
      className={buttonClasses('secondary')}
      onClick={() => void handleRemove()}
      disabled={isBusy}
      aria-busy={isRemoving}
    >
      {isRemoving ? t('settings.api.removing') : t('settings.api.remove')}
    </button>
  )

  return (
    <SettingToggleSection setting="byoApiEnabled" settings={settings} toggle={toggle}>
      {isOn ? (
        <div className="mt-4 space-y-5 border-t border-slate-200 pt-5">
          <div data-testid="saved-key">
            <p className="text-sm font-medium text-slate-900">{t('settings.api.savedKey')}</p>
            {settings.falKey.isSet && settings.falKey.mask ? (
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <code className="rounded-md bg-slate-100 px-2.5 py-1 font-mono text-sm text-slate-900">
                  {settings.falKey.mask}
                </code>
                {removeButton}
              </div>
            ) : (
              <p className="mt-1 text-sm text-slate-600">{t('settings.api.noKey')}</p>
            )}
          </div>
          <form {...form.formProps} onSubmit={handleSave} className="space-y-3">
            <label htmlFor={keyInputId} className="block text-sm font-medium text-slate-900">
              {settings.falKey.isSet ? t('settings.api.replaceLabel') : t('settings.api.keyLabel')}
            </label>
            <div className="flex gap-2">
              <input
                ref={inputRef}
                id={keyInputId}
                name="falKey"
                type={isKeyVisible ? 'text' : 'password'}
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                value={form.values.falKey}
                onChange={form.input('falKey').onChange}
                aria-invalid={keyError ? true : undefined}
                aria-describedby={keyError ? `${keyErrorId} ${keyHintId}` : keyHintId}
                className={`${inputClasses} font-mono`}
              />
              <button
                type="button"
                className={buttonClasses('secondary', 'md', 'shrink-0')}
                onClick={() => setKeyVisible((visible) => !visible)}
                aria-controls={keyInputId}
              >
                {isKeyVisible ? t('settings.api.hide') : t('settings.api.show')}
              </button>
            </div>
            {keyError ? (
              <p id={keyErrorId} className="text-sm text-red-700">
                {keyError}
              </p>
            ) : null}
            <p id={keyHintId} className="text-sm text-slate-600">
              {t('settings.api.keyHint')}
            </p>
            <Button type="submit" disabled={isBusy} aria-busy={isSaving}>
              {isSaving ? t('settings.api.saving') : t('settings.api.save')}
            </Button>
          </form>
        </div>
      ) : settings.falKey.isSet && settings.falKey.mask ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 pt-5">
          <p className="text-sm text-slate-700">
            {t('settings.api.offWithKey', { mask: settings.falKey.mask })}
          </p>
          {removeButton}
        </div>
      ) : null}

      <ActionOutcome error={failure} status={message} className="mt-3" />
    </SettingToggleSection>
  )
}
