import { Alert, Box, Button, Code, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { OPERATIONS as OPS } from '../../../shared/operations.js';
import { notifyError } from '../../components/notify.js';
import { useLoad } from '../../components/useLoad.js';
import { useSession } from '../../state/store.js';
import { bytesOfBase64, mediaTypeOf, showAs, sizeWords } from './inscription-content.js';

/** Characters of text shown before "Show more": a long inscription should not swamp the view. */
const TEXT_PREVIEW = 2_000;

/**
 * One inscription's content, shown safely (see inscription-content.ts): images as images, listed texts as
 * text, anything else described with a download. The bytes come through the API client with the user's
 * session; the content is hostile data, so it is never handed to the page as markup or script.
 */
export function InscriptionView({ outpoint, contentType, size }: { outpoint: string; contentType: string; size: number }) {
  const as = showAs(contentType);
  return (
    <Box data-testid="inscription-view" data-show-as={as}>
      {as === 'download' ? (
        <Opaque outpoint={outpoint} contentType={contentType} size={size} />
      ) : (
        <Shown outpoint={outpoint} contentType={contentType} as={as} />
      )}
    </Box>
  );
}

function Shown({ outpoint, contentType, as }: { outpoint: string; contentType: string; as: 'image' | 'text' }) {
  const call = useSession((s) => s.call);
  const content = useLoad(() => call(OPS.inscriptionContent, { outpoint }), [outpoint]);
  // Decoded once per answer: a new array each render would make a new blob URL each render.
  const bytes = useMemo(() => (content.data ? bytesOfBase64(content.data.contentBase64) : null), [content.data]);
  if (content.error)
    return (
      <Alert color="red" role="alert">
        {content.error}
      </Alert>
    );
  if (!content.data || !bytes) return <Loader size="sm" aria-label="Loading the inscription" />;
  return (
    <Stack gap={4}>
      {as === 'image' ? <ImageContent bytes={bytes} media={mediaTypeOf(contentType)} /> : <TextContent bytes={bytes} />}
      {content.data.truncated && (
        <Text size="xs" c="dimmed">
          Only the first {sizeWords(bytes.length)} of {sizeWords(content.data.size)} are shown.
        </Text>
      )}
    </Stack>
  );
}

/** An allow-listed image type as an <img> of a blob URL made here (the CSP allows blob: images, nothing else). */
function ImageContent({ bytes, media }: { bytes: Uint8Array<ArrayBuffer>; media: string }) {
  const url = useMemo(() => URL.createObjectURL(new Blob([bytes], { type: media })), [bytes, media]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <Image src={url} alt={`Inscribed image (${media})`} mah={360} w="auto" fit="contain" data-testid="inscription-image" />;
}

function TextContent({ bytes }: { bytes: Uint8Array<ArrayBuffer> }) {
  const text = useMemo(() => new TextDecoder('utf-8', { fatal: false }).decode(bytes), [bytes]);
  const [all, setAll] = useState(false);
  const long = text.length > TEXT_PREVIEW;
  return (
    <Stack gap={4} align="flex-start">
      <Code
        block
        data-testid="inscription-text"
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 420, overflow: 'auto', width: '100%' }}
      >
        {all || !long ? text : `${text.slice(0, TEXT_PREVIEW)}…`}
      </Code>
      {long && (
        <Button size="xs" variant="subtle" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show more (${text.length.toLocaleString('en-US')} characters)`}
        </Button>
      )}
    </Stack>
  );
}

/** Any other type (HTML, script, …): described, never rendered; the download is opaque bytes, not the declared type. */
function Opaque({ outpoint, contentType, size }: { outpoint: string; contentType: string; size: number }) {
  const call = useSession((s) => s.call);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const c = await call(OPS.inscriptionContent, { outpoint });
      const url = URL.createObjectURL(new Blob([bytesOfBase64(c.contentBase64)], { type: 'application/octet-stream' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${outpoint}.bin`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap="sm" data-testid="inscription-opaque">
      <Text size="sm">
        Content type {contentType || 'not given'}, {size.toLocaleString('en-US')} bytes. Not shown: only images and plain text are shown
        here.
      </Text>
      <Button size="xs" variant="default" loading={busy} onClick={() => void download()}>
        Download
      </Button>
    </Group>
  );
}
