import { type InputHTMLAttributes, useState } from 'react'
import { useI18n } from '#web/lib/i18n.tsx'
import { inputClasses } from './form-field.tsx'
import { EyeIcon } from './icons.tsx'

/** A password field with a show/hide toggle (a pressed-state button, so its name never changes). */
export function PasswordInput(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> & {
    id: string
    autoComplete: 'current-password' | 'new-password'
  },
) {
  const { t } = useI18n()
  const [isVisible, setVisible] = useState(false)
  return (
    <div className="relative">
      <input
        {...props}
        type={isVisible ? 'text' : 'password'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className={`${inputClasses} pr-12`}
      />
      <button
        type="button"
        aria-controls={props.id}
        aria-pressed={isVisible}
        aria-label={t('common.showPassword')}
        onClick={() => setVisible((visible) => !visible)}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-900 focus-visible:outline-offset-[-2px]"
      >
        <EyeIcon className="size-5" crossed={!isVisible} />
      </button>
    </div>
  )
}
