import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { ApiError } from './api-client.ts'
import { type FormOptions, type RunOptions, useForm } from './use-form.ts'

type Values = { first: string; second: string; third: string }
type Reason = 'required' | 'email' | 'short'

/**
 * A form of three fields, in this DOM order, on the hook and the shared field components; with
 * `other`, a second action run by an Other button (with `otherOptions`).
 */
function TestForm(
  props: Partial<FormOptions<Values, Reason>> & {
    other?: (values: Values) => Promise<unknown>
    otherOptions?: RunOptions
  },
) {
  const { other, otherOptions, ...options } = props
  const form = useForm<Values, Reason>({
    initialValues: { first: '', second: '', third: '' },
    describe: (reason, field) => `${field} is ${reason}`,
    action: async () => undefined,
    ...options,
  })
  return (
    <form {...form.formProps} aria-label="Test form">
      {form.formError ? <FormAlert message={form.formError} /> : null}
      {(['first', 'second', 'third'] as const).map((field) => (
        <FormField key={field} label={field} error={form.errorText(field)}>
          {(control) => <input {...control} {...form.input(field)} className={inputClasses} />}
        </FormField>
      ))}
      <p data-testid="status">{form.status}</p>
      <p data-testid="active">{form.activeAction ?? 'none'}</p>
      <SubmitButton isBusy={form.isBusy} busyLabel="Sending">
        Send
      </SubmitButton>
      {other ? (
        <button type="button" onClick={() => void form.run('other', other, otherOptions)}>
          Other
        </button>
      ) : null}
    </form>
  )
}

/** One field that starts filled in, with a Reset button. */
function ResettableForm() {
  const form = useForm({
    initialValues: { first: 'start' },
    validate: (values) => ({ first: values.first === 'bad' ? 'invalid' : undefined }),
    action: async () => undefined,
  })
  return (
    <form {...form.formProps} aria-label="Resettable">
      <FormField label="first" error={form.errorText('first')}>
        {(control) => <input {...control} {...form.input('first')} />}
      </FormField>
      <p data-testid="status">{form.status}</p>
      <p data-testid="attempted">{String(form.isAttempted)}</p>
      <button type="submit">Send</button>
      <button type="button" onClick={form.reset}>
        Reset
      </button>
      <button type="button" onClick={() => form.resetTo({ first: 'saved' })}>
        Start from saved
      </button>
    </form>
  )
}

/** Renders ResettableForm and sends it with a value its check refuses; gives the user. */
async function sendRefusedReset() {
  const user = userEvent.setup()
  await renderWeb(<ResettableForm />)
  await user.clear(field('first'))
  await user.type(field('first'), 'bad')
  await user.click(screen.getByRole('button', { name: 'Send' }))
  return user
}

/** A text field and a switch (a boolean value), sent again and again when `repeatable`. */
function SwitchForm(props: {
  action: (values: { note: string; urgent: boolean }) => Promise<unknown>
  repeatable?: boolean
}) {
  const form = useForm<{ note: string; urgent: boolean }>({
    initialValues: { note: '', urgent: false },
    action: props.action,
    repeatable: props.repeatable,
  })
  return (
    <form {...form.formProps} aria-label="Switch form">
      <FormField label="note">{(control) => <input {...control} {...form.input('note')} />}</FormField>
      <label>
        <input
          type="checkbox"
          checked={form.values.urgent}
          onChange={(event) => form.setValue('urgent', event.currentTarget.checked)}
        />
        urgent
      </label>
      <p data-testid="status">{form.status}</p>
      <button type="submit">Send</button>
    </form>
  )
}

/** A file input (a File value, null for none) checked as it is chosen, and the error's line above the form. */
function FileForm(props: { action: (values: { file: File | null }) => Promise<unknown> }) {
  const form = useForm<{ file: File | null }, Reason>({
    initialValues: { file: null },
    validateOn: 'change',
    validate: ({ file }, { isAttempted }) => ({
      file: file ? (file.name.endsWith('.csv') ? undefined : 'email') : isAttempted ? 'required' : undefined,
    }),
    describe: (reason, name) => `${name} is ${reason}`,
    action: props.action,
  })
  return (
    <form {...form.formProps} aria-label="File form">
      {form.formError ? (
        <FormAlert message={`${form.formError} (line ${form.formErrorDetails?.line})`} />
      ) : null}
      <FormField label="file" error={form.errorText('file')}>
        {(control) => (
          <input
            {...control}
            type="file"
            onChange={(event) => form.setValue('file', event.currentTarget.files?.[0] ?? null)}
          />
        )}
      </FormField>
      <button type="submit">Send</button>
    </form>
  )
}

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name })
const isInvalid = (control: HTMLElement) => control.getAttribute('aria-invalid') === 'true'
const submitButton = () => screen.getByRole<HTMLButtonElement>('button', { name: /Send/ })

/** A promise the test settles by hand, to look at the form while the action runs. */
function deferred() {
  let resolve: () => void = () => undefined
  let reject: (error: unknown) => void = () => undefined
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** An action that fails with `error`, as a request the server refuses. */
function rejectsWith(error: ApiError) {
  return async () => {
    throw error
  }
}

describe('useForm', () => {
  it('blocks the action on a failed check and focuses the first invalid field in DOM order', async () => {
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    // The check names third before second: focus follows the page, not the object.
    await renderWeb(
      <TestForm
        action={action}
        validate={(values) => ({ third: values.third ? undefined : 'required', second: 'short' })}
      />,
    )
    await user.type(field('first'), 'fine')
    await user.click(submitButton())

    expect(action).not.toHaveBeenCalled()
    expect([field('first'), field('second'), field('third')].map(isInvalid)).toEqual([false, true, true])
    expect(screen.getByText('second is short').id).toBe(field('second').getAttribute('aria-describedby'))
    expect(screen.getByText('third is required')).toBeTruthy()
    await vi.waitFor(() => expect(document.activeElement).toBe(field('second')))
  })

  it('clears only the error of the field being changed', async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm validate={(values) => ({ first: values.first ? undefined : 'required', third: 'short' })} />,
    )
    await user.click(submitButton())
    await user.type(field('first'), 'a')
    expect(isInvalid(field('first'))).toBe(false)
    expect(screen.queryByText('first is required')).toBeNull()
    expect(isInvalid(field('third'))).toBe(true)
  })

  it("puts the server's field errors on the right fields, in the form's terms, and focuses the first", async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        // `second` is called `other` on the server; `unknown` is no field of this form.
        serverFields={{ first: 'first', second: 'other', third: 'third' }}
        serverReason={(reason) => (reason === 'tooShort' ? 'short' : 'email')}
        action={async () => {
          throw new ApiError('VALIDATION_FAILED', 400, 'Invalid field(s)', {
            fields: { third: 'email', other: 'tooShort', unknown: 'required' },
          })
        }}
      />,
    )
    await user.click(submitButton())

    expect(await screen.findByText('second is short')).toBeTruthy()
    expect(screen.getByText('third is email')).toBeTruthy()
    expect([field('first'), field('second'), field('third')].map(isInvalid)).toEqual([false, true, true])
    expect(screen.queryByRole('alert')).toBeNull()
    expect(submitButton().disabled).toBe(false)
    await vi.waitFor(() => expect(document.activeElement).toBe(field('second')))
  })

  it('shows a field-less failure as the error code’s message above the form, in the page’s language', async () => {
    const user = userEvent.setup()
    await renderWeb(<TestForm action={rejectsWith(new ApiError('RATE_LIMITED', 429, 'slow down'))} />, {
      locale: 'tr',
    })
    await user.click(submitButton())
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Çok fazla deneme yapıldı. Lütfen birkaç dakika bekleyip tekrar deneyin.',
    )
    expect(screen.getByTestId('status').textContent).toBe('idle')
    expect(submitButton().disabled).toBe(false)
  })

  it('shows the generic message for an error that is no API error, and a VALIDATION_FAILED on no field', async () => {
    const user = userEvent.setup()
    let failure: unknown = new TypeError('boom')
    await renderWeb(
      <TestForm
        action={async () => {
          throw failure
        }}
      />,
    )
    await user.click(submitButton())
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong on our side. Please try again.',
    )

    failure = new ApiError('VALIDATION_FAILED', 400, 'bad', { fields: { locale: 'invalid' } })
    await user.click(submitButton())
    await vi.waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Please check the highlighted fields.'),
    )
    expect([field('first'), field('second'), field('third')].map(isInvalid)).toEqual([false, false, false])
  })

  it('runs the action once while it is pending, then shows it sent', async () => {
    const pending = deferred()
    const action = vi.fn(() => pending.promise)
    const user = userEvent.setup()
    await renderWeb(<TestForm action={action} />)

    await user.click(submitButton())
    const form = screen.getByRole('form', { name: 'Test form' })
    fireEvent.submit(form)
    fireEvent.submit(form)
    await user.type(field('first'), '{Enter}')

    expect(action).toHaveBeenCalledTimes(1)
    expect(submitButton().disabled).toBe(true)
    expect(submitButton().getAttribute('aria-busy')).toBe('true')
    expect(submitButton().textContent).toBe('Sending')
    pending.resolve()
    await vi.waitFor(() => expect(screen.getByTestId('status').textContent).toBe('sent'))
    fireEvent.submit(form)
    expect(action).toHaveBeenCalledTimes(1)
  })

  it('focuses the first invalid field even when a frame runs before React has drawn the marks', async () => {
    // The old code focused in requestAnimationFrame, betting that React would have committed by
    // then; a frame that comes first finds no invalid field. Here every frame comes at once.
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      callback(performance.now())
      return 0
    })
    const user = userEvent.setup()
    // `third` is valid while typing and becomes invalid only when the form is submitted.
    await renderWeb(
      <TestForm validate={(values) => ({ third: values.third === 'taken' ? 'email' : undefined })} />,
    )
    await user.type(field('third'), 'taken')
    expect(isInvalid(field('third'))).toBe(false)
    await user.click(submitButton())
    expect(document.activeElement).toBe(field('third'))
  })

  it('focuses again on every refused attempt, even when the marks did not change', async () => {
    const user = userEvent.setup()
    await renderWeb(<TestForm validate={() => ({ second: 'required' })} />)
    await user.click(submitButton())
    await vi.waitFor(() => expect(document.activeElement).toBe(field('second')))
    await user.click(field('first'))
    await user.click(submitButton())
    await vi.waitFor(() => expect(document.activeElement).toBe(field('second')))
  })

  it('focuses the server-marked field after the answer, not the field marked before it', async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        validate={(values) => ({ first: values.first ? undefined : 'required' })}
        action={rejectsWith(new ApiError('VALIDATION_FAILED', 400, 'bad', { fields: { third: 'email' } }))}
      />,
    )
    await user.click(submitButton())
    await vi.waitFor(() => expect(document.activeElement).toBe(field('first')))
    await user.type(field('first'), 'ok')
    await user.click(submitButton())
    await vi.waitFor(() => expect(document.activeElement).toBe(field('third')))
    expect(isInvalid(field('first'))).toBe(false)
  })

  it('puts focus back on the submit button after a failed send that lost it', async () => {
    const pending = deferred()
    const user = userEvent.setup()
    await renderWeb(<TestForm action={() => pending.promise} />)
    await user.click(submitButton())
    // A browser drops focus from a button that becomes disabled; jsdom does not, so do it here.
    ;(document.activeElement as HTMLElement).blur()
    expect(document.activeElement).toBe(document.body)
    pending.reject(new ApiError('INTERNAL', 500, 'boom'))
    await screen.findByRole('alert')
    await vi.waitFor(() => expect(document.activeElement).toBe(submitButton()))
  })

  it('leaves focus where it is after a failed send when it is still in the form', async () => {
    const user = userEvent.setup()
    await renderWeb(<TestForm action={rejectsWith(new ApiError('INTERNAL', 500, 'boom'))} />)
    await user.type(field('second'), 'x{Enter}')
    await screen.findByRole('alert')
    expect(document.activeElement).toBe(field('second'))
  })

  it('starts over on reset: initial values, no errors, idle', async () => {
    const user = await sendRefusedReset()
    // Without `describe`, a shared reason reads as its errors.field message.
    expect(screen.getByText('This value is not valid.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Reset' }))
    expect(field('first').value).toBe('start')
    expect(isInvalid(field('first'))).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Send' }))
    await vi.waitFor(() => expect(screen.getByTestId('status').textContent).toBe('sent'))
    await user.click(screen.getByRole('button', { name: 'Reset' }))
    expect(screen.getByTestId('status').textContent).toBe('idle')
  })

  it('keeps a boolean value beside the text ones and sends both', async () => {
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(<SwitchForm action={action} />)
    await user.type(field('note'), 'soon')
    await user.click(screen.getByRole('checkbox', { name: 'urgent' }))
    await user.click(screen.getByRole('button', { name: 'Send' }))

    expect(action).toHaveBeenCalledWith({ note: 'soon', urgent: true })
    await vi.waitFor(() => expect(screen.getByTestId('status').textContent).toBe('sent'))
  })

  it('is idle again after a send when repeatable, so the next send needs no reset', async () => {
    const pending = deferred()
    const action = vi.fn(() => pending.promise)
    const user = userEvent.setup()
    await renderWeb(<SwitchForm action={action} repeatable />)
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByTestId('status').textContent).toBe('sending')
    fireEvent.submit(screen.getByRole('form', { name: 'Switch form' }))
    expect(action).toHaveBeenCalledTimes(1)

    pending.resolve()
    await vi.waitFor(() => expect(screen.getByTestId('status').textContent).toBe('idle'))
    await user.type(field('note'), 'again')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(action).toHaveBeenCalledTimes(2)
    expect(action).toHaveBeenLastCalledWith({ note: 'again', urgent: false })
  })

  it('on validateOn change, shows the checks of the values as they are typed, and those held back after an attempt', async () => {
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        validateOn="change"
        action={action}
        // Too long shows at once; empty only once a send was tried.
        validate={(values, { isAttempted }) => ({
          first: values.first.length > 3 ? 'short' : !values.first && isAttempted ? 'required' : undefined,
          second: !values.second && isAttempted ? 'required' : undefined,
        })}
      />,
    )
    await user.type(field('first'), 'abcd')
    expect(screen.getByText('first is short')).toBeTruthy()
    expect(isInvalid(field('first'))).toBe(true)
    await user.clear(field('first'))
    expect([field('first'), field('second')].map(isInvalid)).toEqual([false, false])

    await user.click(submitButton())
    expect(action).not.toHaveBeenCalled()
    expect(screen.getByText('first is required')).toBeTruthy()
    expect(screen.getByText('second is required')).toBeTruthy()
    await user.type(field('second'), 'x')
    expect(screen.queryByText('second is required')).toBeNull()
    // After the attempt a new problem shows as it is typed, without another send.
    await user.type(field('first'), 'abcde')
    expect(screen.getByText('first is short')).toBeTruthy()
    await user.clear(field('first'))
    await user.type(field('first'), 'ok')
    expect(isInvalid(field('first'))).toBe(false)
    await user.click(submitButton())
    expect(action).toHaveBeenCalledWith({ first: 'ok', second: 'x', third: '' })
  })

  it("on validateOn change, shows the server's reason ahead of the check's until its field changes", async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        validateOn="change"
        validate={(values) => ({ first: values.first.length > 3 ? 'short' : undefined })}
        action={rejectsWith(new ApiError('VALIDATION_FAILED', 400, 'bad', { fields: { first: 'email' } }))}
      />,
    )
    await user.type(field('first'), 'a@b')
    await user.click(submitButton())
    expect(await screen.findByText('first is email')).toBeTruthy()
    await user.type(field('first'), 'cd')
    expect(screen.queryByText('first is email')).toBeNull()
    expect(screen.getByText('first is short')).toBeTruthy()
  })

  it('puts a server path on the field serverFieldOf names, keeping the first reason for a field', async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        // `third` stands for a list the server checks item by item: third.0, third.1, …
        serverFieldOf={(path) => {
          const head = path.split('.')[0]
          return head === 'second' || head === 'third' ? head : null
        }}
        action={rejectsWith(
          new ApiError('VALIDATION_FAILED', 400, 'bad', {
            fields: { 'third.2': 'email', 'third.0': 'required', second: 'short', 'other.1': 'required' },
          }),
        )}
      />,
    )
    await user.click(submitButton())
    expect(await screen.findByText('third is email')).toBeTruthy()
    expect(screen.queryByText('third is required')).toBeNull()
    expect(screen.getByText('second is short')).toBeTruthy()
    expect([field('first'), field('second'), field('third')].map(isInvalid)).toEqual([false, true, true])
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('leaves focus where it is after a refused attempt and a failed send on focusOnError false', async () => {
    let isChecked = true
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        focusOnError={false}
        validate={() => ({ second: isChecked ? 'required' : undefined })}
        action={rejectsWith(new ApiError('VALIDATION_FAILED', 400, 'bad', { fields: { third: 'email' } }))}
      />,
    )
    await user.click(submitButton())
    expect(isInvalid(field('second'))).toBe(true)
    expect(document.activeElement).toBe(submitButton())

    isChecked = false
    await user.click(submitButton())
    expect(await screen.findByText('third is email')).toBeTruthy()
    expect(document.activeElement).toBe(submitButton())
  })

  it('also shows the message above the form for errors on fields on formErrorWithFieldErrors', async () => {
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        formErrorWithFieldErrors
        action={rejectsWith(new ApiError('VALIDATION_FAILED', 400, 'bad', { fields: { third: 'email' } }))}
      />,
    )
    await user.click(submitButton())
    expect((await screen.findByRole('alert')).textContent).toBe('Please check the highlighted fields.')
    expect(screen.getByText('third is email')).toBeTruthy()
    expect(isInvalid(field('third'))).toBe(true)
  })

  it('runs a second action under the same busy state, and shows its failure as a send’s', async () => {
    const pending = deferred()
    const other = vi.fn((_values: Values) => pending.promise)
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(<TestForm action={action} other={other} repeatable />)
    await user.type(field('first'), 'kept')
    await user.click(screen.getByRole('button', { name: 'Other' }))
    expect(other).toHaveBeenCalledWith({ first: 'kept', second: '', third: '' })
    expect(screen.getByTestId('active').textContent).toBe('other')
    expect(submitButton().getAttribute('aria-busy')).toBe('true')
    // Neither a send nor the same action again while it runs.
    fireEvent.submit(screen.getByRole('form', { name: 'Test form' }))
    await user.click(screen.getByRole('button', { name: 'Other' }))
    expect(action).not.toHaveBeenCalled()
    expect(other).toHaveBeenCalledTimes(1)

    pending.reject(new ApiError('RATE_LIMITED', 429, 'slow down'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    )
    expect(screen.getByTestId('active').textContent).toBe('none')
    expect(screen.getByTestId('status').textContent).toBe('idle')
    await user.click(submitButton())
    expect(action).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('starts over from other values on resetTo, as not attempted', async () => {
    const user = await sendRefusedReset()
    expect(screen.getByTestId('attempted').textContent).toBe('true')
    await user.click(screen.getByRole('button', { name: 'Start from saved' }))
    expect(field('first').value).toBe('saved')
    expect(isInvalid(field('first'))).toBe(false)
    expect(screen.getByTestId('attempted').textContent).toBe('false')
  })

  it('leaves the form sent after a second action that sends it, on run with sends', async () => {
    const other = vi.fn(async () => undefined)
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(<TestForm action={action} other={other} otherOptions={{ sends: true }} />)
    await user.click(screen.getByRole('button', { name: 'Other' }))
    await vi.waitFor(() => expect(screen.getByTestId('active').textContent).toBe('none'))
    expect(screen.getByTestId('status').textContent).toBe('sent')
    expect(submitButton().getAttribute('aria-busy')).toBe('true')
    fireEvent.submit(screen.getByRole('form', { name: 'Test form' }))
    expect(action).not.toHaveBeenCalled()
  })

  it("refuses a send with the refusal's message above the form, with the fields' reasons or on its own", async () => {
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(
      <TestForm
        action={action}
        validate={(values) => ({ second: values.second === 'bad' ? 'short' : undefined })}
        refusal={(values, fieldErrors) =>
          fieldErrors.second
            ? 'publishing.resubmit.checkFields'
            : values.first === ''
              ? 'publishing.batch.nothingToSend'
              : null
        }
      />,
    )
    await user.type(field('second'), 'bad')
    await user.click(submitButton())
    expect(screen.getByRole('alert').textContent).toBe('Check the fields marked below.')
    expect(isInvalid(field('second'))).toBe(true)
    await vi.waitFor(() => expect(document.activeElement).toBe(field('second')))

    await user.clear(field('second'))
    // The message stays until the next send, which the form's own reason refuses.
    expect(screen.getByRole('alert').textContent).toBe('Check the fields marked below.')
    await user.click(submitButton())
    expect(screen.getByRole('alert').textContent).toContain('No product can be sent yet')
    expect(action).not.toHaveBeenCalled()

    await user.type(field('first'), 'ready')
    await user.click(submitButton())
    expect(action).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).toBeNull()
  })
  it('keeps a chosen file as a value, checks it as it is chosen, and sends it', async () => {
    const action = vi.fn(async () => undefined)
    const user = userEvent.setup()
    await renderWeb(<FileForm action={action} />)
    const input = screen.getByLabelText<HTMLInputElement>('file')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('file is required')).toBeTruthy()
    expect(document.activeElement).toBe(input)

    await user.upload(input, new File(['x'], 'photo.png', { type: 'image/png' }))
    expect(screen.getByText('file is email')).toBeTruthy()
    const list = new File(['a;b'], 'list.csv', { type: 'text/csv' })
    await user.upload(input, list)
    expect(isInvalid(input)).toBe(false)
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(action).toHaveBeenCalledWith({ file: list })
  })

  it("gives the details of the error behind the message above the form, as the line of a file's failure", async () => {
    const user = userEvent.setup()
    await renderWeb(
      <FileForm action={rejectsWith(new ApiError('CATALOGUE_FILE_UNREADABLE', 400, 'bad', { line: 7 }))} />,
    )
    await user.upload(screen.getByLabelText('file'), new File(['a;b'], 'list.csv', { type: 'text/csv' }))
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/ \(line 7\)$/)
  })
})
