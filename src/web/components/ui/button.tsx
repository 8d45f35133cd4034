import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { Link, type LinkProps } from 'react-router'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'accent' | 'danger'
export type ButtonSize = 'md' | 'lg'

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2'
const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 focus-visible:outline-brand-700',
  /** Irreversible actions (deleting an account). */
  danger: 'bg-red-700 text-white hover:bg-red-800 focus-visible:outline-red-700',
  secondary:
    'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 focus-visible:outline-brand-700',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-brand-700',
  accent: 'bg-accent-400 text-brand-950 hover:bg-accent-300 focus-visible:outline-accent-400',
}
const sizes: Record<ButtonSize, string> = { md: 'px-4 py-2 text-sm', lg: 'px-6 py-3 text-base' }

/** Class names for anything that should look like a button (buttons and links alike). */
export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra = '',
): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`
}

export function Button({
  variant,
  size,
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type="button" className={buttonClasses(variant, size, className)} {...props} />
}

export function ButtonLink({
  variant,
  size,
  className,
  children,
  ...props
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize; children: ReactNode }) {
  const localized = useLocalizedHref()
  // A public page's path is linked in the current language.
  const to = typeof props.to === 'string' ? localized(props.to) : props.to
  return (
    <Link className={buttonClasses(variant, size, className)} {...props} to={to}>
      {children}
    </Link>
  )
}
