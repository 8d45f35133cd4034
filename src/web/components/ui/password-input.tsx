import { type InputHTMLAttributes, useState } from 'react'
import { useI18n } from '#web/lib/i18n.tsx'
import { inputClasses } from './form-field.tsx'

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
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
          <circle cx="12" cy="12" r="3" />
          {isVisible ? null : <path d="m4 4 16 16" />}
        </svg>
      </button>
    </div>
  )
}
