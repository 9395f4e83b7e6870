// A chat host, reduced to what an MCP App needs, for the browser test of the
// server's app (tests/it/browser_app.rs): the official MCP Apps SDK's host
// side (AppBridge) over the official MCP client, against the real server's
// /mcp on this page's origin. It creates a game, finds the view the throw
// tool names in `_meta.ui.resourceUri`, reads it, renders it in a sandboxed
// iframe under the content-security policy its `_meta.ui.csp` asks for, and
// relays the view's calls to the server. What happened is in `window.host`.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const host = { ready: false, calls: [], reads: [], sizes: [], error: "" };
window.host = host;

// The policy a host applies to a view: nothing beyond the inline document
// and data: images, plus the origins the resource declares.
function policy(csp = {}) {
  const list = (domains) => (domains ?? []).join(" ");
  const connect = list(csp.connectDomains) || "'none'";
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src data: ${resources}`,
    `connect-src ${connect}`,
  ].join("; ");
}

async function main() {
  const client = new Client({ name: "zohn-ahl-test-host", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.origin)));
  const { tools } = await client.listTools();
  const throwTool = tools.find((t) => t.name === "throw");
  const uri = getToolUiResourceUri(throwTool);
  host.uri = uri;
  const args = { side_a: "Ama", side_b: "Bea", seed: "mcp-app" };
  const created = await client.callTool({ name: "create_game", arguments: args });
  host.gameId = created.structuredContent.game.game_id;

  const read = await client.readResource({ uri });
  const content = read.contents[0];
  if (content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`the view's MIME type is ${content.mimeType}`);
  }
  host.csp = policy(content._meta?.ui?.csp);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${host.csp}">`;
  const html = content.text.replace(/<head>/i, `<head>${meta}`);

  const iframe = document.createElement("iframe");
  iframe.id = "app";
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.title = "Zohn Ahl board";
  document.body.appendChild(iframe);

  const bridge = new AppBridge(
    client,
    { name: "zohn-ahl-test-host", version: "0.0.0" },
    { serverTools: {}, serverResources: {} },
    { hostContext: { theme: "light", displayMode: "inline", platform: "web" } },
  );
  bridge.oninitialized = async () => {
    host.initialized = true;
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(created);
  };
  bridge.onsizechange = ({ height }) => {
    host.sizes.push(height);
    if (height) iframe.style.height = `${height}px`;
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  // Every call the view makes, counted, then forwarded as the SDK does.
  const call = bridge.oncalltool;
  bridge.oncalltool = async (params, extra) => {
    host.calls.push(params.name);
    return call(params, extra);
  };
  const readResource = bridge.onreadresource;
  bridge.onreadresource = async (params, extra) => {
    host.reads.push(params.uri);
    return readResource(params, extra);
  };
  iframe.srcdoc = html;
  host.ready = true;
}

main().catch((e) => {
  host.error = String(e?.stack ?? e);
  console.error(e);
});
