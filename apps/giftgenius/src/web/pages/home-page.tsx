/**
 * @module `/`: what GiftGenius is, the address a person adds in their chat
 * host, and the promise that nothing is bought without their click.
 */

/** What the home page shows: the MCP URL to add, and whether someone is signed in. */
export type HomePageProps = { mcpUrl: string; signedIn: boolean };

/** The home page. */
export function HomePage({ mcpUrl, signedIn }: HomePageProps) {
  return (
    <>
      <h1>GiftGenius: gift ideas in your chat</h1>
      <p>
        GiftGenius is a chat app. Tell your assistant (Claude, ChatGPT or another chat host that runs MCP apps) who the gift is for, what they like and your
        budget: GiftGenius suggests gifts from its shop as cards right in the conversation, and prepares a checkout for the one you pick.
      </p>
      <h2>Add it to your chat host</h2>
      <p>Add a custom connector (an MCP server) with this address:</p>
      <code class="mcp-url" data-testid="mcp-url">
        {mcpUrl}
      </code>
      <p>
        Your chat host then sends you here to sign in to your GiftGenius account and to say what it may do for you. You can disconnect it at any time on{' '}
        {signedIn ? <a href="/account">your account page</a> : 'your account page'}.
      </p>
      <h2>You decide every purchase</h2>
      <p data-testid="purchase-promise">
        Nothing is bought until you click <strong>Confirm</strong> on the checkout shown in the chat. The assistant can suggest gifts and prepare a checkout,
        but it can never confirm one for you. After you confirm, you pay on the payment page it opens.
      </p>
      {!signedIn && (
        <p>
          <a href="/signin">Sign in</a> to see the apps you connected and your checkouts.
        </p>
      )}
    </>
  );
}
