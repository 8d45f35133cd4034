/**
 * Sends the browser to the payment provider's hosted page (checkout, customer portal). A module
 * of its own so that component tests can replace it: jsdom cannot navigate.
 */
export function leaveFor(url: string): void {
  window.location.assign(url)
}
