import { ButtonLink } from './button.tsx'

/**
 * The two calls to action on a dark brand panel (the landing hero, the features page's closing
 * panel): the main one in the accent colour, the other outlined in white.
 */
export function OnDarkLinks(props: {
  className: string
  main: { to: string; label: string }
  other: { to: string; label: string }
}) {
  return (
    <div className={props.className}>
      <ButtonLink to={props.main.to} variant="accent" size="lg">
        {props.main.label}
      </ButtonLink>
      <ButtonLink
        to={props.other.to}
        size="lg"
        className="border border-white/30 bg-white/10 text-white hover:bg-white/20 focus-visible:outline-white"
      >
        {props.other.label}
      </ButtonLink>
    </div>
  )
}
