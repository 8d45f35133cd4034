/** The Vitrin mark and word. */
export function Logo(props: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${props.className ?? ''}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="7" fill="#312e81" />
        <path d="M8 9h4.2l3.8 11 3.8-11H24l-6 15h-4z" fill="#fbbf24" />
      </svg>
      <span className="text-xl">Vitrin</span>
    </span>
  )
}
