import { apiKeyNameMaxLength, type CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { FieldReason } from '#shared/validation.ts'
import { FormDialog } from '#web/components/ui/form-dialog.tsx'
import { FormInput } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'

type Field = 'name'

function validate(values: Record<Field, string>): Partial<Record<Field, FieldReason>> {
  const name = values.name.trim()
  if (name === '') return { name: 'required' }
  if (name.length > apiKeyNameMaxLength) return { name: 'tooLong' }
  return {}
}

/**
 * Asks for a key's name and creates it; `onCreated` gets the server's answer, whose secret the
 * caller shows once (SecretKeyDialog) and then forgets.
 */
export function CreateApiKeyDialog(props: {
  create: (name: string) => Promise<CreateApiKeyResponse>
  onCreated: (created: CreateApiKeyResponse) => void
  onClose: () => void
}) {
  const { t } = useI18n()
  const form = useForm<Record<Field, string>, FieldReason>({
    initialValues: { name: '' },
    validate,
    describe: (reason) => {
      if (reason === 'required') return t('apiKeys.createDialog.required')
      if (reason === 'tooLong') return t('apiKeys.createDialog.tooLong', { max: apiKeyNameMaxLength })
      return t(`errors.field.${reason}`)
    },
    action: async (values) => {
      props.onCreated(await props.create(values.name.trim()))
    },
  })

  return (
    <FormDialog keys="apiKeys.createDialog" busy="busy" form={form} onClose={props.onClose}>
      <FormInput
        form={form}
        name="name"
        label={t('apiKeys.createDialog.nameLabel')}
        type="text"
        autoComplete="off"
        maxLength={apiKeyNameMaxLength + 20}
        placeholder={t('apiKeys.createDialog.namePlaceholder')}
        required
      />
    </FormDialog>
  )
}
