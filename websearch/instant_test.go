package websearch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAnswerLooseTyping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want Answer
	}{
		{
			name: "empty strings where numbers and objects go",
			body: `{"Type":"","Image":"","ImageHeight":"","ImageWidth":"","ImageIsLogo":"","Infobox":"","RelatedTopics":[],"Results":[],"meta":null}`,
			want: Answer{},
		},
		{
			name: "numbers, relative image, infobox object",
			body: `{"Type":"A","Heading":"H","Image":"/i/abc.png","ImageHeight":200,"ImageWidth":"300","ImageIsLogo":1,
				"Infobox":{"content":[{"label":"Designed by","value":"Someone"},{"label":"Instance of","value":{"id":"Q1"}},
				{"label":"Year","value":2015},{"label":"","value":"no label"}],"meta":[]}}`,
			want: Answer{Type: "A", Heading: "H",
				Image:   &Image{URL: "https://duckduckgo.com/i/abc.png", Width: 300, Height: 200, IsLogo: true},
				Infobox: []InfoboxEntry{{"Designed by", "Someone"}, {"Year", "2015"}},
			},
		},
		{
			name: "null and odd types do not break decoding",
			body: `{"Heading":null,"Answer":{"from":"calc"},"ImageHeight":null,"ImageWidth":true,"Infobox":[],"Redirect":null}`,
			want: Answer{},
		},
		{
			name: "answer tags removed, definition and redirect",
			body: `{"Type":"E","Answer":"<b>2 + 2</b> = 4","AnswerType":"calc","Definition":"A word.","DefinitionSource":"Wiktionary","DefinitionURL":"https://en.wiktionary.org/wiki/word","Redirect":"https://example.com/"}`,
			want: Answer{Type: "E", Answer: "2 + 2 = 4", AnswerType: "calc",
				Definition: Summary{Text: "A word.", Source: "Wiktionary", URL: "https://en.wiktionary.org/wiki/word"},
				Redirect:   "https://example.com/"},
		},
		{
			name: "results, icons as objects or strings",
			body: `{"Results":[{"FirstURL":"https://go.dev","Icon":{"URL":"/i/go.dev.ico","Height":16,"Width":""},"Result":"<a href=\"https://go.dev\"><b>Official site</b></a>","Text":"Official site"},
				{"FirstURL":"https://x.example","Icon":"","Result":"<a href=\"https://x.example\">X <b>site</b></a>"}]}`,
			want: Answer{Results: []Link{
				{Text: "Official site", URL: "https://go.dev", Icon: "https://duckduckgo.com/i/go.dev.ico"},
				{Text: "X site", URL: "https://x.example"},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := parseAnswer([]byte(tc.body))
			require.NoError(t, err)
			assert.Equal(t, &tc.want, a)
		})
	}
}

func TestParseAnswerTopics(t *testing.T) {
	t.Parallel()
	body := `{"Type":"D","RelatedTopics":[
		{"FirstURL":"https://duckduckgo.com/Cargo","Icon":{"URL":"https://duckduckgo.com/i/c.png"},"Result":"<a href=\"https://duckduckgo.com/Cargo\">Cargo</a> - The Rust package manager","Text":"Cargo - The Rust package manager"},
		{"Name":"Films","Topics":[
			{"FirstURL":"https://duckduckgo.com/A_(film)","Result":"<a href=\"https://duckduckgo.com/A_(film)\"><i>A</i> (film)</a>, a 1999 film","Text":"A (film), a 1999 film"},
			{"FirstURL":"https://duckduckgo.com/B","Result":"<a href=\"https://duckduckgo.com/B\">B Meanings</a>","Text":"B Meanings"}
		]},
		{"FirstURL":"https://duckduckgo.com/apple","Result":"The <a href=\"https://duckduckgo.com/apple\">apple</a> is a fruit.","Text":"The apple is a fruit."},
		{"FirstURL":"https://duckduckgo.com/x","Result":"","Text":"Text only,  spaced"},
		{"FirstURL":"","Result":"","Text":""}
	]}`
	a, err := parseAnswer([]byte(body))
	require.NoError(t, err)
	assert.Equal(t, []Topic{
		{Name: "Cargo", Description: "The Rust package manager", Text: "Cargo - The Rust package manager", URL: "https://duckduckgo.com/Cargo", Icon: "https://duckduckgo.com/i/c.png"},
		{Name: "A (film)", Description: "a 1999 film", Text: "A (film), a 1999 film", URL: "https://duckduckgo.com/A_(film)", Group: "Films"},
		{Name: "B Meanings", Text: "B Meanings", URL: "https://duckduckgo.com/B", Group: "Films"},
		{Name: "apple", Description: "The apple is a fruit.", Text: "The apple is a fruit.", URL: "https://duckduckgo.com/apple"},
		{Name: "Text only, spaced", Text: "Text only,  spaced", URL: "https://duckduckgo.com/x"},
	}, a.RelatedTopics)
	assert.False(t, a.Empty())
}
