/** Grey placeholder blocks in the shape of the dashboard, with a spoken "loading" status. */
export function UsageSkeleton(props: { label: string }) {
  const block = 'animate-pulse rounded-2xl bg-slate-200'
  return (
    <div aria-busy="true" data-testid="usage-skeleton">
      <p role="status" className="sr-only">
        {props.label}
      </p>
      <div aria-hidden="true" className="space-y-6">
        <div className={`${block} h-10 w-56`} />
        <div className={`${block} h-24`} />
        <div className="grid gap-4 sm:grid-cols-2">
          <div className={`${block} h-32`} />
          <div className={`${block} h-32`} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <div className={`${block} h-20`} />
          <div className={`${block} h-20`} />
          <div className={`${block} h-20`} />
        </div>
      </div>
    </div>
  )
}
