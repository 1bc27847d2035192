import { Accordion, Alert, Badge, Button, Code, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { openApiDocument } from '../../shared/openapi.js';
import { canCall, OPERATIONS, type AnyContract } from '../../shared/operations.js';
import { ApiError } from '../api/client.js';
import { messageOf } from '../components/errors.js';
import { useSession } from '../state/store.js';

interface RouteDoc {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  parameters: { name: string; in: string }[];
  body: unknown;
  contract: AnyContract;
}

/**
 * The API reference, offline: the same OpenAPI document the server serves at /openapi.json, built from
 * the operation contracts bundled with the app, with each route's parameters and body schema, and "Try
 * it", which calls the operation as the signed-in user (through the app's own channel, so no token is
 * handed to the page).
 */
export function ApiView() {
  const role = useSession((s) => s.me?.role ?? null);
  const [filter, setFilter] = useState('');
  const routes = useMemo(() => routesOf(openApiDocument(Object.values(OPERATIONS), { version: '' })), []);
  const shown = routes.filter((r) => `${r.method} ${r.path} ${r.summary}`.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Stack>
      <Title order={2}>API</Title>
      <Text c="dimmed" size="sm">
        Every route of the embedded API (also as OpenAPI 3.1 at <Code>/openapi.json</Code>). Scripts sign in with <Code>POST /v1/auth</Code>{' '}
        and send the token as the <Code>authToken</Code> header; every operation is also <Code>POST /rpc/&lt;operationId&gt;</Code>.
      </Text>
      <TextInput
        label="Find a route"
        placeholder="pay, /v1/wallets, token…"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
      />
      <Accordion variant="separated" multiple>
        {shown.map((r) => (
          <Accordion.Item key={`${r.method} ${r.path}`} value={`${r.method}${r.path}`.replace(/[^A-Za-z0-9]+/g, '-')}>
            <Accordion.Control aria-label={`${r.method} ${r.path}`}>
              <Group gap="sm" wrap="nowrap">
                <Badge variant="light" w={72}>
                  {r.method}
                </Badge>
                <Text ff="monospace" size="sm">
                  {r.path}
                </Text>
                <Text size="sm" c="dimmed" truncate>
                  {r.summary}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <RouteDetail route={r} allowed={canCall(role, r.contract)} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function RouteDetail({ route, allowed }: { route: RouteDoc; allowed: boolean }) {
  const call = useSession((s) => s.call);
  const [input, setInput] = useState('{}');
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tryIt = async () => {
    setBusy(true);
    setAnswer(null);
    setError(null);
    try {
      const parsed = input.trim() ? (JSON.parse(input) as object) : {};
      setAnswer(JSON.stringify(await call(route.contract, parsed as never), null, 2));
    } catch (err) {
      // Here the API's own words, field names and all: they name the JSON keys just typed.
      setError(
        err instanceof SyntaxError ? `The input is not JSON: ${err.message}` : err instanceof ApiError ? err.message : messageOf(err),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Text size="sm">{route.description}</Text>
      <Text size="sm">
        Operation <Code>{route.contract.name}</Code>
        {route.parameters.length > 0 && <>; parameters: {route.parameters.map((p) => `${p.name} (${p.in})`).join(', ')}</>}
      </Text>
      {route.body !== undefined && (
        <details>
          <summary>Body schema</summary>
          <Code block>{JSON.stringify(route.body, null, 2)}</Code>
        </details>
      )}
      {allowed ? (
        <>
          <Textarea
            label={`Input for ${route.contract.name} (JSON)`}
            autosize
            minRows={2}
            value={input}
            onChange={(e) => setInput(e.currentTarget.value)}
            ff="monospace"
          />
          <Group>
            <Button size="xs" onClick={() => void tryIt()} loading={busy}>
              Try it
            </Button>
          </Group>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          Your role cannot call this route.
        </Text>
      )}
      {error && (
        <Alert color="red" title="The call failed">
          {error}
        </Alert>
      )}
      {answer && (
        <Code block data-testid={`api-answer-${route.contract.name}`}>
          {answer}
        </Code>
      )}
    </Stack>
  );
}

function routesOf(doc: Record<string, unknown>): RouteDoc[] {
  const byId = new Map<string, AnyContract>(Object.values(OPERATIONS).map((c) => [c.name, c as AnyContract]));
  const out: RouteDoc[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const [method, op] of Object.entries(item)) {
      const contract = byId.get(String(op.operationId).replace(/_\d+$/, ''));
      if (!contract) continue;
      const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']
        ?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        summary: String(op.summary ?? ''),
        description: String(op.description ?? ''),
        tag: ((op.tags as string[] | undefined) ?? [''])[0],
        parameters: (op.parameters as { name: string; in: string }[] | undefined) ?? [],
        body,
        contract,
      });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
