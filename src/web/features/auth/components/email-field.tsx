import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { FieldInputProps } from '#web/lib/use-form.ts'

/** The email field of the sign-in, sign-up and reset forms. */
export function EmailField(props: {
  form: {
    input: (name: 'email') => FieldInputProps
    errorText: (name: 'email') => string | undefined
  }
}) {
  const { t } = useI18n()
  return (
    <FormField label={t('auth.fields.email')} error={props.form.errorText('email')}>
      {(control) => (
        <input
          {...control}
          {...props.form.input('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          className={inputClasses}
        />
      )}
    </FormField>
  )
}
