import { Accordion } from 'react-bootstrap';
import { MarkdownHtml, splitQuestions } from '../../../components/MarkdownHtml';
import { useHydrated } from '../../../lib/hydration';

/**
 * The FAQ accordion (docs/product.md §2): the FAQ setting's HTML, each heading a question. Its default is
 * today's five questions (contract/src/rules/default-texts.ts).
 */
export function Faq({ html }: { html: string }) {
  // Split with the browser's HTML parser, at the foot of the page: a page the server rendered
  // shows it once hydrated (below the fold, it moves nothing on screen).
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return <FaqSections html={html} />;
}

function FaqSections({ html }: { html: string }) {
  const { intro, items } = splitQuestions(html);
  if (!intro && items.length === 0) return null;
  return (
    <section aria-labelledby="faq-heading" className="my-5">
      <h2 id="faq-heading">FAQ</h2>
      {intro && <MarkdownHtml html={intro} />}
      {items.length > 0 && (
        <Accordion>
          {items.map((item, i) => (
            <Accordion.Item key={i} eventKey={String(i)}>
              <Accordion.Header as="h3">{item.question}</Accordion.Header>
              <Accordion.Body>
                <MarkdownHtml html={item.answer} className="faq-answer" />
              </Accordion.Body>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </section>
  );
}
